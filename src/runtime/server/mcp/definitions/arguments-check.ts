/** A tool's arguments, checked: the data the handler gets, or what is wrong, field by field. */
export type ArgumentsChecked = { ok: true, data: Record<string, unknown> } | { ok: false, problem: string }

/** Checks a tool's arguments; a Standard Schema library may answer asynchronously. */
export type ArgumentsCheck = (value: unknown) => ArgumentsChecked | Promise<ArgumentsChecked>
