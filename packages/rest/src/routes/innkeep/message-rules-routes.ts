import {
  createMessageRuleOperation,
  deleteMessageRuleOperation,
  getMessageRulesOperation,
  pauseMessageRuleOperation,
  resumeMessageRuleOperation,
  updateMessageRuleOperation,
} from '@innkeep/operations';
import { defineRoute, type RestRoute } from '../../route-definition.ts';
import { ignoredBodySchema } from './ignored-body.ts';

/** Automated guest messages: list, create, change, pause, resume and delete. */
export const messageRulesRoutes: readonly RestRoute[] = [
  defineRoute({
    operation: getMessageRulesOperation,
    method: 'GET',
    path: '/getMessageRules',
    summary: 'Lists the automated guest messages, optionally those that apply to one listing.',
    description: 'A page of message rules, by name, with nextCursor/hasMore.',
    tag: 'Message rules',
    paging: 'page',
  }),
  defineRoute({
    operation: createMessageRuleOperation,
    method: 'POST',
    path: '/createMessageRule',
    summary: 'Adds an automated guest message, active at once.',
    description: 'The new message rule.',
    tag: 'Message rules',
    successStatus: 201,
  }),
  defineRoute({
    operation: updateMessageRuleOperation,
    method: 'POST',
    path: '/updateMessageRule/:ruleId',
    summary: 'Changes an automated guest message; omitted fields stay, null removes a setting.',
    description: 'The message rule as changed.',
    tag: 'Message rules',
  }),
  defineRoute({
    operation: pauseMessageRuleOperation,
    method: 'POST',
    path: '/pauseMessageRule/:ruleId',
    summary: 'Pauses an automated guest message; pausing a paused one changes nothing.',
    description: 'The message rule, paused.',
    tag: 'Message rules',
    bodySchema: ignoredBodySchema,
    // Resuming has its own route, so the operation's `paused: false` is not offered here.
    input: ({ params }) => ({ ruleId: params.ruleId, paused: true }),
  }),
  defineRoute({
    operation: resumeMessageRuleOperation,
    method: 'POST',
    path: '/resumeMessageRule/:ruleId',
    summary: 'Lets a paused automated guest message send again; an active one stays as it is.',
    description: 'The message rule, active.',
    tag: 'Message rules',
    bodySchema: ignoredBodySchema,
    input: ({ params }) => ({ ruleId: params.ruleId }),
  }),
  defineRoute({
    operation: deleteMessageRuleOperation,
    method: 'DELETE',
    path: '/deleteMessageRule/:ruleId',
    summary: 'Deletes an automated guest message; messages it already sent stay in their threads.',
    description: 'The id of the deleted rule and deleted: true.',
    tag: 'Message rules',
  }),
];
