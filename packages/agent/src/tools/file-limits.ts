/** Files above this are refused by default (50 MB: larger than any provider takes, small enough to buffer). */
export const DEFAULT_MAX_FILE_BYTES = 50_000_000;
