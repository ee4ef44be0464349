// The playground page: a file goes through detect → probe → process in this page (the browser entry of
// @glimpse/media and its WASM codecs), then through every provider serializer of @glimpse/agent.
import { PROVIDER_NAMES, toMediaPart, type DocumentPart, type ImagePart, type ProviderName } from '@glimpse/agent';
import { estimatePartTokens } from '@glimpse/agent/compaction';
import {
  detect,
  isMediaError,
  isPresetName,
  PRESET_NAMES,
  process,
  type PresetName,
  type ProcessResult,
} from '@glimpse/media';
import { providerPayload, type ProviderPayload } from './provider-payload.js';
import { watchFileInput } from './watch-file-input.js';

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`the page lacks #${id}`);
  return found;
}

const page = {
  picker: element('file', HTMLInputElement),
  dropZone: element('input', HTMLElement),
  preset: element('preset', HTMLSelectElement),
  status: element('status', HTMLElement),
  facts: element('facts', HTMLElement),
  original: element('original', HTMLElement),
  processed: element('processed', HTMLElement),
  tokens: element('tokens', HTMLElement),
  payloads: element('payloads', HTMLElement),
  tabs: element('tabs', HTMLElement),
  payloadNote: element('payload-note', HTMLElement),
  payload: element('payload', HTMLElement),
};

let current: { file: File; bytes: Uint8Array } | undefined;
const objectUrls: string[] = [];

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function setStatus(text: string, isError = false): void {
  page.status.textContent = text;
  page.status.classList.toggle('error', isError);
}

function table(rows: [string, string][]): HTMLTableElement {
  const result = document.createElement('table');
  for (const [name, value] of rows) {
    const row = result.insertRow();
    const header = document.createElement('th');
    header.textContent = name;
    row.append(header);
    row.insertCell().textContent = value;
  }
  return result;
}

/** An <img> for what the browser can show; a text card for PDFs and formats it cannot. */
function preview(target: HTMLElement, bytes: Uint8Array, mediaType: string | undefined, label: string): void {
  target.replaceChildren();
  if (
    mediaType === undefined ||
    mediaType === 'application/pdf' ||
    mediaType === 'image/tiff' ||
    mediaType.startsWith('image/h')
  ) {
    const card = document.createElement('div');
    card.className = 'card';
    card.textContent = label;
    target.append(card);
    return;
  }
  const url = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: mediaType }));
  objectUrls.push(url);
  const image = document.createElement('img');
  image.alt = label;
  image.src = url;
  target.append(image);
}

function showPayload(payload: ProviderPayload): void {
  page.tabs
    .querySelectorAll('button')
    .forEach((button) => button.setAttribute('aria-selected', String(button.dataset.provider === payload.provider)));
  page.payload.textContent = payload.readableJson;
  const warnings = payload.warnings.map((warning) => `${warning.type}: ${warning.message}`).join(' ');
  page.payloadNote.textContent = `The messages the ${payload.provider} serializer produces for one user turn (base64 shortened here; "Copy exact JSON" copies all of it).${warnings ? ` Warnings: ${warnings}` : ''}`;
}

function showProviders(part: ImagePart | DocumentPart): void {
  const payloads = PROVIDER_NAMES.map((provider) => providerPayload(provider, part));
  const estimate = (provider: ProviderName) => estimatePartTokens(part, { provider });
  page.tokens.replaceChildren(table(PROVIDER_NAMES.map((provider) => [provider, `≈ ${estimate(provider)} tokens`])));
  page.tokens.prepend(Object.assign(document.createElement('h2'), { textContent: 'Token estimate per provider' }));
  page.tokens.hidden = false;
  page.tabs.replaceChildren(
    ...payloads.map((payload) => {
      const button = document.createElement('button');
      button.textContent = payload.provider;
      button.dataset.provider = payload.provider;
      button.setAttribute('role', 'tab');
      button.addEventListener('click', () => showPayload(payload));
      return button;
    }),
    Object.assign(document.createElement('button'), {
      textContent: 'Copy exact JSON',
      onclick: () => {
        const selected = payloads.find((payload) =>
          page.tabs.querySelector(`button[aria-selected="true"][data-provider="${payload.provider}"]`),
        );
        if (selected) void navigator.clipboard.writeText(selected.exactJson);
      },
    }),
  );
  page.payloads.hidden = false;
  if (payloads[0]) showPayload(payloads[0]);
}

function showFacts(file: File, detected: string | undefined, result: ProcessResult): void {
  const { original } = result;
  page.facts.replaceChildren(
    table([
      ['File', `${file.name} (${kilobytes(file.size)})`],
      ['Detected type', detected ?? 'unknown'],
      [
        'Original',
        `${original.mediaType}, ${original.width}×${original.height}${original.pages ? `, ${original.pages} pages` : ''}, ${kilobytes(original.bytes)}`,
      ],
      ['Processed', `${result.mediaType}, ${result.width}×${result.height}, ${kilobytes(result.bytes)}`],
      ['Steps', result.steps.length > 0 ? result.steps.join(', ') : 'none: sent as-is'],
    ]),
  );
  page.facts.hidden = false;
}

async function run(): Promise<void> {
  if (!current) return;
  const { file, bytes } = current;
  const preset: PresetName = isPresetName(page.preset.value) ? page.preset.value : 'portable';
  objectUrls.splice(0).forEach((url) => URL.revokeObjectURL(url));
  const detected = detect(bytes);
  preview(page.original, bytes, detected, `${detected ?? 'unknown type'}, ${kilobytes(bytes.byteLength)}`);
  page.processed.replaceChildren();
  setStatus(`Processing ${file.name} for the ${preset} preset…`);
  const started = performance.now();
  try {
    const result = await process(bytes, { preset });
    preview(
      page.processed,
      result.data,
      result.mediaType,
      `${result.mediaType}${result.pages ? `, ${result.pages} pages` : ''}, ${kilobytes(result.bytes)}`,
    );
    showFacts(file, detected, result);
    showProviders(toMediaPart(result, file.name));
    setStatus(`Done in ${Math.round(performance.now() - started)} ms.`);
    document.body.dataset.state = 'processed';
  } catch (error) {
    page.facts.hidden = page.tokens.hidden = page.payloads.hidden = true;
    setStatus(isMediaError(error) ? `${error.code}: ${error.message}` : `Failed: ${String(error)}`, true);
    document.body.dataset.state = 'failed';
  }
}

page.preset.append(
  ...PRESET_NAMES.map((name) => Object.assign(document.createElement('option'), { value: name, textContent: name })),
);
page.preset.addEventListener('change', () => void run());
watchFileInput({
  picker: page.picker,
  dropZone: page.dropZone,
  onFile: (file) => {
    void file.arrayBuffer().then((buffer) => {
      current = { file, bytes: new Uint8Array(buffer) };
      return run();
    });
  },
});
document.body.dataset.state = 'ready';
