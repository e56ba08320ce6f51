// Where the version is in a URL: the /v<N>/ segment VER-PATH looks for and VER-UNKNOWN replaces.
import type { ResourceConfig } from '../../src/core/types.js';

/** A path segment of the form v<N>. */
export const VERSION_SEGMENT = /^v(\d+)$/;

/** The full path of a resource's collection: the base URL's path followed by the resource's path. */
export function collectionUrl(baseUrl: string, resource: ResourceConfig): URL {
  const base = new URL(baseUrl);
  base.pathname = `${base.pathname.replace(/\/+$/, '')}${resource.path}`;
  return base;
}

/** Index of the first v<N> segment of a path's segments, or -1. */
export function versionSegment(pathname: string): { index: number; segments: string[] } {
  const segments = pathname.split('/');
  return { index: segments.findIndex((s) => VERSION_SEGMENT.test(s)), segments };
}
