import type nodeFetch from 'node-fetch';

/** The fetch every HTTP caller of the core takes (node-fetch unless a test or host hands in another). */
export type FetchLike = typeof nodeFetch;
