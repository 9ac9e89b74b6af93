/** The baseline of the webhook benchmark: a workflow that does nothing, so its rate is the server's own. */
export async function emptyWorkflow(): Promise<void> {}
