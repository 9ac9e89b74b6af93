import { Client, Connection } from '@temporalio/client';

export interface TemporalHandle {
  client: Client;
  connection: Connection;
}

export async function connectTemporal(address: string, namespace: string): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '5s' });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Resolves when the Temporal frontend answers a cheap call for our namespace. */
export async function pingTemporal(handle: TemporalHandle, namespace: string): Promise<void> {
  await handle.connection.workflowService.describeNamespace({ namespace });
}
