export const DEFAULT_TASK_QUEUE = 'billing';
