import { guestCases } from './cases/guest-cases.ts';
import { performanceCases } from './cases/performance-cases.ts';
import { reservationCases } from './cases/reservation-cases.ts';
import type { ToolCase } from './tool-case.ts';

/** Every analytics tool the benchmark measures, with its arguments and baseline, in tools/list order. */
export const toolCases: readonly ToolCase[] = [...performanceCases, ...reservationCases, ...guestCases];
