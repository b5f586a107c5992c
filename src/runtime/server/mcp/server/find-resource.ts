import type { McpRegistry, RegisteredResource } from '../definitions/registry'

/**
 * The resource `uri` names: a fixed resource, or the first template that matches it, with the
 * template's variables.
 *
 * @example
 * ```ts
 * const found = findResource(registry, 'users://42/profile') // { resource, variables: { id: '42' } }
 * ```
 */
export function findResource(registry: McpRegistry, uri: string): { resource: RegisteredResource, variables: Record<string, string | string[]> } | undefined {
  const fixed = registry.resources.get(uri)
  if (fixed) return { resource: fixed, variables: {} }
  for (const resource of registry.templates) {
    const variables = resource.template?.match(uri)
    if (variables) return { resource, variables }
  }
  return undefined
}
