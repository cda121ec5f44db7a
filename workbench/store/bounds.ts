// What a workbench holds per store beside its world, bounded by one count: the stores that may hold settings
// of their own (a clock, fault rules). Each part refuses one more store the same way (409 `conflict`, naming
// the request that frees a place and the store it would free) rather than evicting state someone set on
// purpose. Worlds are the other kind: rebuilt from the store on demand, they are evicted (an LRU of
// --max-worlds), never refused.

/** Stores that may hold a setting of their own at once, per kind of setting (a clock; fault rules). */
export const MAX_STORES_WITH_SETTINGS = 1000;
