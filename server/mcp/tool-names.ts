// The MCP server's tool names, in one list: server/mcp/mcp-tools.ts defines one tool per name, and the
// organization's AI settings (management `ai`) pick their enabled tools from it.

/** Every tool's name: the one list the organization's AI settings pick their enabled tools from. */
export const MCP_TOOL_NAMES = [
  'list_collections',
  'get_collection',
  'list_itineraries',
  'get_itinerary',
  'create_itinerary_from_route',
  'add_segment',
  'plan_route',
  'suggest_routes',
  'analyze_geometry',
  'search_places',
  'reachable_area',
  'search_zones',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];
