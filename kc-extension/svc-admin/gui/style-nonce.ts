/// <reference lib="dom" />
import { StyleModule } from 'style-mod';

/**
 * dmn-js's FEEL cells use CodeMirror, whose styles arrive in a `<style>` element that style-mod
 * writes at run time (its text changes as editors mount, so no hash can name it). The shell page
 * gives its script a fresh CSP nonce; handing it to style-mod before any editor mounts makes that
 * one element carry it, so the policy needs no 'unsafe-inline'.
 */
export function adoptStyleNonce(): void {
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce;
  if (nonce !== undefined && nonce !== '') StyleModule.mount(document, [], { nonce });
}
