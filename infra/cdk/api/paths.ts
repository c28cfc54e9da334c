import type { IResource } from 'aws-cdk-lib/aws-apigateway';
import { Resource } from 'aws-cdk-lib/aws-apigateway';
import type { Construct } from 'constructs';

/** A path and each path above it, root excluded: `/v1/leads/{leadId}` → `/v1`, `/v1/leads`, `/v1/leads/{leadId}`. */
export const pathsAbove = (path: string): string[] => {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, index) => `/${parts.slice(0, index + 1).join('/')}`);
};

/**
 * The paths the routes of more than one group pass through (`/v1`): the parent stack makes these, and each group's
 * stack makes the rest of its own paths, so no group's stack depends on another's. Every path above a shared path is
 * shared too.
 */
export function sharedPaths(groups: ReadonlyMap<string, readonly { path: string }[]>): string[] {
  const users = new Map<string, Set<string>>();
  for (const [group, routes] of groups) {
    for (const route of routes) for (const path of pathsAbove(route.path)) users.set(path, (users.get(path) ?? new Set()).add(group));
  }
  return [...users].filter(([, groupsUsing]) => groupsUsing.size > 1).map(([path]) => path);
}

/**
 * The API's resources (its paths) as one stack sees them: those another stack made, imported by id, and the rest made
 * here below the nearest one above, once each.
 */
export class PathTree {
  private readonly imported = new Map<string, IResource>();

  constructor(
    private readonly scope: Construct,
    private readonly root: IResource,
    /** The paths made elsewhere (the parent's shared paths), by path. */
    private readonly elsewhere: ReadonlyMap<string, IResource> = new Map(),
  ) {}

  resourceFor(path: string): IResource {
    const above = pathsAbove(path);
    for (let index = above.length - 1; index >= 0; index--) {
      const made = this.importedAt(above[index]!);
      if (made) return path === above[index] ? made : made.resourceForPath(path.slice(above[index]!.length + 1));
    }
    return path === '/' ? this.root : this.root.resourceForPath(path.slice(1));
  }

  private importedAt(path: string): IResource | undefined {
    const made = this.elsewhere.get(path);
    if (!made) return undefined;
    if (made.api === this.root.api) return made;
    if (!this.imported.has(path)) {
      this.imported.set(path, Resource.fromResourceAttributes(this.scope, path.replaceAll('/', '.'), { restApi: this.root.api, resourceId: made.resourceId, path }));
    }
    return this.imported.get(path);
  }
}
