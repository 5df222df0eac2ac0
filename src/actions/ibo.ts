/** IBO actions: entering with an IBO code, prospects. */
export const ibo = {};
