/**
 * @module Where a command's model comes from (`types`, `openapi`): a model file (`--model`), or a
 * 4D project folder (`--project`) read as `serve --project` reads it.
 */
export type ModelSource = { readonly model: string } | { readonly project: string }

/** The file or folder the model comes from, for messages. */
export const sourceOf = (s: ModelSource): string => ('project' in s ? s.project : s.model)
