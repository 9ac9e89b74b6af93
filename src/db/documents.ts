/**
 * Document repository: rendered PDFs of finalized invoices (one row per edition) and of credit
 * notes. Rows are immutable (a trigger refuses UPDATE and DELETE); two renders of the same edition
 * racing each other keep the first row, which both then serve.
 */
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';

export interface StoredDocument {
  id: string;
  edition: string;
  sha256: string;
  content: Uint8Array;
  parties: unknown;
  createdAt: Date;
}

export type DocumentOwner = { invoiceId: string } | { creditNoteId: string };

const where = (owner: DocumentOwner, edition: string) =>
  'invoiceId' in owner ? { invoiceId_edition: { invoiceId: owner.invoiceId, edition } } : { creditNoteId_edition: { creditNoteId: owner.creditNoteId, edition } };

export async function findDocument(tx: DbClient, owner: DocumentOwner, edition: string): Promise<StoredDocument | null> {
  return tx.document.findUnique({ where: where(owner, edition) });
}

/** The parties printed on the owner's first stored edition, or null when none is stored yet. */
export async function firstPrintedParties(tx: DbClient, owner: DocumentOwner): Promise<unknown> {
  const first = await tx.document.findFirst({ where: owner, orderBy: { createdAt: 'asc' }, select: { parties: true } });
  return first?.parties ?? null;
}

/** Stores an edition unless one is stored already; answers the stored row either way, and whether this call stored it. */
export async function storeDocument(
  tx: DbClient,
  input: { id: string; owner: DocumentOwner; edition: string; sha256: string; content: Uint8Array; parties: unknown },
): Promise<{ document: StoredDocument; created: boolean }> {
  const { count } = await tx.document.createMany({
    data: [
      {
        id: input.id,
        ...input.owner,
        edition: input.edition,
        sha256: input.sha256,
        content: Buffer.from(input.content),
        parties: input.parties as Prisma.InputJsonValue,
      },
    ],
    skipDuplicates: true,
  });
  return { document: await tx.document.findUniqueOrThrow({ where: where(input.owner, input.edition) }), created: count === 1 };
}
