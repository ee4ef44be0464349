// What each provider would receive for one user turn holding the file: the serializer's exact request body,
// and a readable copy with the base64 body shortened (the exact JSON is kept for copying).
import { serialize, type DocumentPart, type ImagePart, type ProviderName, type SerializeWarning } from '@glimpse/agent';

export interface ProviderPayload {
  provider: ProviderName;
  exactJson: string;
  readableJson: string;
  warnings: SerializeWarning[];
}

export const PROMPT = 'What does this file show?';

export function providerPayload(provider: ProviderName, part: ImagePart | DocumentPart): ProviderPayload {
  const { body, warnings } = serialize(provider, {
    messages: [{ role: 'user', parts: [{ type: 'text', text: PROMPT }, part] }],
  });
  const bytesAsBase64 = (_key: string, value: unknown) => (value instanceof Uint8Array ? part.data : value);
  const shortened = (key: string, value: unknown) => {
    const plain = bytesAsBase64(key, value);
    return typeof plain === 'string' && plain.length > 96 && plain.includes(part.data.slice(0, 64))
      ? `${plain.slice(0, plain.indexOf(part.data.slice(0, 64)) + 48)}… (${part.data.length} base64 characters)`
      : plain;
  };
  return {
    provider,
    exactJson: JSON.stringify(body, bytesAsBase64, 2),
    readableJson: JSON.stringify(body, shortened, 2),
    warnings,
  };
}
