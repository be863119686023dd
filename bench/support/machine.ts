import { cpus, totalmem } from 'node:os';

export interface MachineDescription {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  node: string;
}

export function describeMachine(): MachineDescription {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
  };
}

export function machineLine(machine: MachineDescription): string {
  return `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, Node ${machine.node}`;
}
