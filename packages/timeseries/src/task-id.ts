import { badRequest } from '@mds/schema';
import type { TaskRef } from './port.ts';

/** DataHub's OperationsResource.isTaskIdValid: `<node>:<number>`, the number not 0. */
const TASK_ID = /^([a-zA-Z0-9_-]+):([0-9]+)$/;

export const formatTaskId = (ref: TaskRef) => `${ref.node}:${ref.id}`;

/** Parses `<node>:<n>`; undefined when malformed (including a number that is 0 or too large to be exact). */
export function parseTaskId(task: string): TaskRef | undefined {
  const match = TASK_ID.exec(task);
  if (!match) return undefined;
  const id = Number(match[2]);
  if (id === 0 || !Number.isSafeInteger(id)) return undefined;
  return { node: match[1]!, id };
}

/**
 * getEsTaskStatus's parameters (`task`, or `nodeId` + `taskId`) to one task, with DataHub's 400 messages.
 * As in DataHub, `taskId` <= 0 counts as not given.
 */
export function taskFromParams(params: { task?: string; nodeId?: string; taskId?: number }): TaskRef {
  const { task, nodeId } = params;
  const taskId = params.taskId ?? 0;
  const pairGiven = nodeId !== undefined && taskId > 0;
  if (task === undefined && !pairGiven) {
    throw badRequest('Please specify either Node ID + task ID OR composite task parameters');
  }
  if (task !== undefined && pairGiven && task !== `${nodeId}:${taskId}`) {
    throw badRequest('Please specify only one of Node ID + task ID OR composite task parameters');
  }
  const composite = task ?? `${nodeId}:${taskId}`;
  const ref = parseTaskId(composite);
  if (!ref) {
    throw badRequest(`Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got ${composite})`);
  }
  return ref;
}
