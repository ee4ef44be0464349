import type { FileReference, MediaPart } from '../types.js';

/** One medium for a provider's file store, as the outgoing copy carries it. */
export interface MediaUpload {
  bytes: Uint8Array;
  mediaType: MediaPart['mediaType'];
  /** Hex sha256 of `bytes`: what the reference is remembered by. */
  sha256: string;
  /** A name for the provider's listing (a document's own filename, else one made of the hash). */
  filename: string;
}

/** Uploads a medium once and answers with the provider's reference; a live client with `fileReferences` has one. */
export type UploadMedia = (media: MediaUpload, signal?: AbortSignal) => Promise<FileReference>;

/**
 * Deletes an upload from the provider's file store; answers `gone` when the store no longer had it (a 404:
 * deleted before, or expired). A live client with `fileReferences` has one.
 */
export type DeleteMedia = (reference: FileReference, signal?: AbortSignal) => Promise<'deleted' | 'gone'>;
