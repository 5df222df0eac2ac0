/** When the home page offers the welcome modal (no IBO info, no user info, no code in the URL). */
export function shouldWelcome(state: { user: string | null; ibo: string | null; codeInUrl: boolean; dismissed: boolean }): boolean {
  return state.user === null && state.ibo === null && !state.codeInUrl && !state.dismissed;
}
