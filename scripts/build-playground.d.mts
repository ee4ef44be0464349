/** Builds packages/playground into its dist/ folder and returns that folder's path. */
export function buildPlayground(): Promise<string>;
