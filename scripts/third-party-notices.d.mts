export function debianSources(packageDir: string): string[];
export function bundledNpmPackages(packageDir: string): string[];
export function vendoredLicences(packageDir: string): string[];
export function referencedLicences(text: string): string[];
export function writeNotices(packageName: string): string;
