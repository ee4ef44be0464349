/** A package glimpse publishes: its folder under packages/ and its npm name. */
export interface PublishedPackage {
  name: string;
  npmName: string;
}
export const PUBLISHED_PACKAGES: readonly PublishedPackage[];
