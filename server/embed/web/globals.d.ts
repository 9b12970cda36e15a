// What the pages' modules find on the page: MapLibre GL JS, loaded before them as a classic script (its UMD build
// declares the `maplibregl` global), and the state each page shows to its browser tests.

/// <reference types="maplibre-gl" />

interface Window {
  cairnPlanner: unknown;
  cairnEmbed: unknown;
}
