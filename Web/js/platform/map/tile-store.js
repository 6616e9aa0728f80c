// The basemap's tiles on the device: every tile the map fetches is kept in the Cache Storage `cairn-basemap`
// (tile URLs carry the basemap's version and never change, so a kept tile is answered without asking the
// server), which is how a phone that visited an area sees it with the network cut. `keepMap` fetches every
// tile of the covered area at once, for a map kept for offline use. The basemap's TileJSON is kept there too,
// so the map knows its tiles before any request succeeds.
import { api } from "../api.js";
import { pyramid, tileURL } from "./tile-math.js";

const cacheName = "cairn-basemap";
/** Beyond this many tiles a covered area is too large to keep whole on a phone. */
export const maxKeptTiles = 6000;

const cacheAvailable = () => typeof caches !== "undefined";

let infoLoad;
const infoKey = "/api/streets/basemap";
/**
 * The basemap's TileJSON (`GET /api/streets/basemap`), or null when the server has none. Fetched once per page
 * and kept beside the tiles, so that it is answered from the device when the server cannot be reached (it is
 * public data, so it stays when the person logs out).
 */
export function getBasemapInfo() {
  infoLoad ??= (async () => {
    const cache = cacheAvailable() ? await caches.open(cacheName).catch(() => null) : null;
    try {
      const info = await api(infoKey);
      cache?.put(infoKey, new Response(JSON.stringify(info), { headers: { "Content-Type": "application/json" } })).catch(() => {});
      forgetOtherVersions(info.version);
      return info;
    } catch (error) {
      if ((error?.status ?? 0) !== 0) return null;
      const kept = await cache?.match(infoKey);
      return kept ? kept.json() : null;
    }
  })();
  return infoLoad;
}

/** Tile bytes (ArrayBuffer, empty for an empty tile) from the device, else the server (and then kept). */
export async function fetchTile(url, { signal } = {}) {
  const cache = cacheAvailable() ? await caches.open(cacheName).catch(() => null) : null;
  const kept = await cache?.match(url);
  if (kept) return kept.arrayBuffer();
  const response = await fetch(url, { signal, credentials: "same-origin" });
  if (!response.ok) throw new Error(`tile ${url}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  // Stored decoded, with the type only: the bytes are the tile itself, whatever encoding carried them.
  const headers = { "Content-Type": "application/vnd.mapbox-vector-tile", "Content-Length": String(bytes.byteLength) };
  cache?.put(url, new Response(bytes, { headers })).catch(() => {});
  return bytes;
}

/** Drops tiles of earlier imports once, in the background. */
function forgetOtherVersions(version) {
  if (!cacheAvailable()) return;
  const marker = `/basemap/${version}/`;
  caches.open(cacheName)
    .then(async (cache) => {
      for (const request of await cache.keys()) {
        if (!request.url.includes(marker) && !request.url.endsWith(infoKey)) await cache.delete(request);
      }
    })
    .catch(() => {});
}

/** Every tile URL of the covered area, all zooms. */
export function coveredTileURLs(info) {
  return pyramid(info.bounds, info.minzoom, info.maxzoom).map((tile) => tileURL(info.tiles[0], tile));
}

/** How much of the covered area is on this device: { kept, total, bytes }. */
export async function keptState(info) {
  const urls = coveredTileURLs(info);
  if (!cacheAvailable() || urls.length > maxKeptTiles) return { kept: 0, total: urls.length, bytes: 0 };
  const cache = await caches.open(cacheName);
  const wanted = new Set(urls.map((url) => new URL(url, location.href).href));
  let kept = 0;
  let bytes = 0;
  for (const request of await cache.keys()) {
    if (!wanted.has(request.url)) continue;
    kept += 1;
    const response = await cache.match(request);
    bytes += Number(response?.headers.get("Content-Length")) || (await response.clone().arrayBuffer()).byteLength;
  }
  return { kept, total: urls.length, bytes };
}

/**
 * Fetches every tile of the covered area not on the device yet, four at a time; `onProgress({ done, total })`
 * after each. Resolves to the state afterwards; rejects when the server cannot be reached.
 */
export async function keepMap(info, { onProgress, signal } = {}) {
  const urls = coveredTileURLs(info);
  if (urls.length > maxKeptTiles) throw new Error(`The map has ${urls.length} tiles, too many to keep on a phone.`);
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      if (signal?.aborted) throw new DOMException("Stopped", "AbortError");
      const url = urls[next];
      next += 1;
      await fetchTile(url, { signal });
      done += 1;
      onProgress?.({ done, total: urls.length });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return keptState(info);
}

/** Removes every kept tile (the map still caches what it draws afresh). */
export async function forgetKeptMap() {
  if (cacheAvailable()) await caches.delete(cacheName);
}
