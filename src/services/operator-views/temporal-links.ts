/**
 * Links from the operator views to the Temporal UI. A link opens the UI's workflow list filtered to
 * one workflow id (every run of it: entity workflows continue as new each period), or to every
 * workflow carrying a customer's CustomerId search attribute.
 */
import { CUSTOMER_ID_SEARCH_ATTRIBUTE, WORKFLOW_ID_OF, type WorkflowKind } from '../../temporal/workflows/ids.js';

/** The Temporal CLI dev server's UI, where the run command starts it. */
export const DEFAULT_TEMPORAL_UI_URL = 'http://localhost:8233';

export interface OperatorViewSettings {
  /** Where operators reach the Temporal UI (TEMPORAL_UI_URL). */
  temporalUiUrl: string;
  /** The namespace the workflows run in (TEMPORAL_NAMESPACE). */
  namespace: string;
}

/** A visibility query's string literal: double quotes, backslashes escaped. */
const literal = (value: string): string => `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;

function listUrl(settings: OperatorViewSettings, query: string): string {
  const base = settings.temporalUiUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(settings.namespace)}/workflows?query=${encodeURIComponent(query)}`;
}

export interface WorkflowLink {
  workflowId: string;
  url: string;
}

/** The workflow of a resource (`kind` and its id) in the Temporal UI. */
export function workflowLink(settings: OperatorViewSettings, kind: WorkflowKind, id: string): WorkflowLink {
  const workflowId = WORKFLOW_ID_OF[kind](id);
  return { workflowId, url: listUrl(settings, `WorkflowId=${literal(workflowId)}`) };
}

/** Every workflow of a customer in the Temporal UI. */
export const customerWorkflowsUrl = (settings: OperatorViewSettings, customerId: string): string =>
  listUrl(settings, `${CUSTOMER_ID_SEARCH_ATTRIBUTE}=${literal(customerId)}`);
