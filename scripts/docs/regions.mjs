// Generated blocks inside Markdown pages. A block sits between two comment lines:
//   <!-- begin generated:NAME (where it comes from) -->
//   …generated text…
//   <!-- end generated:NAME -->
// The begin line is written by hand (it tells a reader where to edit instead); only the text between is replaced.

const escapeRegExp = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The name ends where a name character does not follow: `bench` must not find `bench-cli`'s block.
const pattern = (name) =>
  new RegExp(
    `(<!-- begin generated:${escapeRegExp(name)}(?![\\w.-])[^\\n]*-->\\n)([\\s\\S]*?)(<!-- end generated:${escapeRegExp(name)} -->)`,
  );

/** The text of block NAME in a page, or undefined when the page has no such block. */
export function readRegion(page, name) {
  const match = pattern(name).exec(page);
  return match ? match[2].replace(/\n$/, '') : undefined;
}

/** The page with block NAME's text replaced by `body`; throws when the page has no such block. */
export function replaceRegion(page, name, body) {
  if (!pattern(name).test(page))
    throw new Error(`no "<!-- begin generated:${name} … -->" … "<!-- end generated:${name} -->" block`);
  return page.replace(pattern(name), (_all, begin, _old, end) => `${begin}${body}\n${end}`);
}

/** Names of every generated block in a page. */
export function regionNames(page) {
  return [...page.matchAll(/<!-- begin generated:([\w.-]+)/g)].map((match) => match[1]);
}
