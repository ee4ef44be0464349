export function readRegion(page: string, name: string): string | undefined;
export function replaceRegion(page: string, name: string, body: string): string;
export function regionNames(page: string): string[];
