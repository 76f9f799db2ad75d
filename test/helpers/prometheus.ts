/** One sample of a Prometheus text exposition: its metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of a Prometheus text exposition (what prom-client's `GET /metrics` writes: one
 * sample per line, `name{label="value",...} number`; comments skipped). Label values here never
 * hold a quote or a brace (route templates, peers, outcomes), so no escape is undone.
 */
export function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const [, name = '', set = '', value = ''] of text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)$/gm)) {
    const labels = Object.fromEntries([...set.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)].map(([, key = '', labelValue = '']) => [key, labelValue]));
    found.push({ name, labels, value: Number(value) });
  }
  return found;
}
