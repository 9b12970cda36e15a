// Depth and cost of a GraphQL document, measured once when it is compiled (never per request): a document
// nested too deep, or asking for too much, is refused before anything runs. Fragments are expanded where
// they are spread, so a fragment costs what it selects each time it is used.
//
// Cost: every field selected counts 1 for each time it can appear in the answer. A field returning a list
// multiplies what it holds by LIST_FACTOR (a list's length is not known before it runs); the introspection
// types (`__schema`, `__type`, …) do not, since they describe this one finite schema.

import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  GraphQLList,
  isCompositeType,
  isIntrospectionType,
  Kind,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  typeFromAST,
} from 'graphql';

/** How much a list multiplies what it holds, in the cost model. */
export const LIST_FACTOR = 10;

export interface QueryLimits {
  /** Deepest nesting of fields allowed (`{ a { b } }` is 2). */
  maxDepth: number;
  /** Highest cost allowed. */
  maxCost: number;
}

export interface QueryMeasure {
  depth: number;
  cost: number;
}

/**
 * The depth and cost of the heaviest operation in a valid document (run it after validation: fragment
 * cycles and unknown fields are refused there).
 */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode): QueryMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  let worst: QueryMeasure = { depth: 0, cost: 0 };

  const walk = (set: SelectionSetNode, parent: GraphQLCompositeType, multiplier: number, depth: number): QueryMeasure => {
    let out: QueryMeasure = { depth, cost: 0 };
    const add = (m: QueryMeasure) => {
      out = { depth: Math.max(out.depth, m.depth), cost: out.cost + m.cost };
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = fieldOf(parent, selection.name.value);
        add({ depth: depth + 1, cost: multiplier });
        if (!field || !selection.selectionSet) continue;
        const inner = getNamedType(field.type);
        if (!isCompositeType(inner)) continue;
        const list = getNullableType(field.type) instanceof GraphQLList && !isIntrospectionType(parent);
        add(walk(selection.selectionSet, inner, list ? multiplier * LIST_FACTOR : multiplier, depth + 1));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? typeFromAST(schema, selection.typeCondition) : parent;
        add(walk(selection.selectionSet, isCompositeType(on) ? on : parent, multiplier, depth));
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment) continue;
        const on = typeFromAST(schema, fragment.typeCondition);
        add(walk(fragment.selectionSet, isCompositeType(on) ? on : parent, multiplier, depth));
      }
    }
    return out;
  };

  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = schema.getRootType(def.operation);
    if (!root) continue;
    const m = walk(def.selectionSet, root, 1, 0);
    worst = { depth: Math.max(worst.depth, m.depth), cost: Math.max(worst.cost, m.cost) };
  }
  return worst;
}

/** The field of a composite type (interfaces and objects), including __typename and the introspection roots. */
function fieldOf(parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
  if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (!('getFields' in parent)) return undefined; // a union selects only __typename directly
  return parent.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
}
