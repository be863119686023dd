/**
 * The Prometheus project's own text-format parser (its Python client,
 * `prometheus_client.parser.text_string_to_metric_families`), so GET /metrics is read as a
 * Prometheus server reads it, not by a parser of ours. A text it cannot parse fails the test.
 */
import { spawnSync } from 'node:child_process';
import { requireSystemTool } from './systemTools.js';

export interface ParsedFamily {
  name: string;
  type: string;
  help: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const script = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
families = [
    {"name": f.name, "type": f.type, "help": f.documentation,
     "samples": [{"name": s.name, "labels": s.labels, "value": None if math.isnan(s.value) else s.value}
                 for s in f.samples]}
    for f in text_string_to_metric_families(sys.stdin.read())
]
json.dump(families, sys.stdout)
`;

export function parsePrometheusText(text: string): ParsedFamily[] {
  const python = requireSystemTool('prometheus-parser');
  const run = spawnSync(python, ['-c', script], { input: text, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`the Prometheus parser refused the text: ${run.stderr}`);
  return JSON.parse(run.stdout) as ParsedFamily[];
}
