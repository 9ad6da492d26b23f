import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/**
 * Bounds on what one request may ask for, so a single query cannot take the server down. The schema is
 * flat (a user has no nested objects), so only introspection legitimately goes deep: GraphiQL's own
 * introspection query is depth 13 and selects about 150 fields, and both fit with room to spare.
 */
export const queryLimits = {
  /** Deepest selection nesting (mercurius `queryDepth`). */
  maxDepth: 15,
  /** Fields selected by one document, aliases and fragment uses counted each time they appear. */
  maxFields: 500,
  /**
   * Top-level fields of one operation: each `users` reads the whole table, so aliases of it multiply the
   * work of one request.
   */
  maxRootFields: 10,
  /** Operations in one batched (JSON array) request. */
  maxBatch: 10,
};

/** A validation rule refusing operations that select more than `max` fields in total or too many at the top. */
export function fieldCountRule(max: number, maxRoot = queryLimits.maxRootFields) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const memo = new Map<string, number>();
    // Counts with fragments expanded; a cycle (refused by another rule) counts as over the limit.
    const count = (set: SelectionSetNode | undefined, visiting: Set<string>): number => {
      let total = 0;
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) total += 1 + count(selection.selectionSet, visiting);
        else if (selection.kind === Kind.INLINE_FRAGMENT) total += count(selection.selectionSet, visiting);
        else {
          const name = selection.name.value;
          if (visiting.has(name)) return Number.POSITIVE_INFINITY;
          let size = memo.get(name);
          if (size === undefined) {
            visiting.add(name);
            size = count(fragments.get(name)?.selectionSet, visiting);
            visiting.delete(name);
            memo.set(name, size);
          }
          total += size;
        }
        if (total > max) return total;
      }
      return total;
    };
    // Fields at the top of a selection set, looking through fragments.
    const top = (set: SelectionSetNode | undefined, visiting: Set<string>): number => {
      let total = 0;
      for (const selection of set?.selections ?? []) {
        if (selection.kind === Kind.FIELD) total += 1;
        else if (selection.kind === Kind.INLINE_FRAGMENT) total += top(selection.selectionSet, visiting);
        else if (!visiting.has(selection.name.value)) {
          visiting.add(selection.name.value);
          total += top(fragments.get(selection.name.value)?.selectionSet, visiting);
        }
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const roots = top(node.selectionSet, new Set());
        if (roots > maxRoot) {
          context.reportError(
            new GraphQLError(
              `an operation may select at most ${maxRoot} top-level fields (aliases included)`,
              {
                nodes: [node],
              },
            ),
          );
          return false;
        }
        const total = count(node.selectionSet, new Set());
        if (total > max) {
          context.reportError(
            new GraphQLError(`query selects more than ${max} fields (aliases included)`, { nodes: [node] }),
          );
        }
        return false;
      },
    };
  };
}
