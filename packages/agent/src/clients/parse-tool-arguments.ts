/** A tool call's JSON arguments; anything that is not a JSON object becomes `{}` (the tool then says what is missing). */
export function parseToolArguments(json: string | undefined): Record<string, unknown> {
  if (json === undefined || json.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
  } catch {
    return {};
  }
}
