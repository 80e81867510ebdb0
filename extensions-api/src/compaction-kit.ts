/**
 * `@keel/extensions-api/compaction`: the helpers compaction strategies share — cut points, token estimates,
 * activity digests, and the summary record's wording. Heuristics, not contract: they may change without
 * changing `API_VERSION`.
 */
export * from "./compaction-cut.js";
export * from "./compaction-summary.js";
