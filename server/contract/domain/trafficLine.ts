/** One line that crossed a modem's port: `in` from the modem, `out` to it (the UI's "AT log"). */
export const TrafficDirections = ['in', 'out'] as const;
export type TrafficDirection = (typeof TrafficDirections)[number];

export interface TrafficLine {
  at: number;
  direction: TrafficDirection;
  line: string;
}
