import type { DailyStats } from '../api/types.js';
import { chartScale } from '../format/chartScale.js';

/** Grouped bars per day (inline SVG; no chart library, nothing loaded from elsewhere). */
const series = [
  { key: 'sent', label: 'Sent', className: 'series-sent' },
  { key: 'delivered', label: 'Delivered', className: 'series-delivered' },
  { key: 'failed', label: 'Failed', className: 'series-failed' },
  { key: 'received', label: 'Received', className: 'series-received' },
] as const;

const width = 720;
const height = 220;
const margin = { top: 12, right: 8, bottom: 28, left: 40 };

export function DailyChart(props: { days: DailyStats[] }) {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const scale = chartScale(props.days.flatMap((day) => series.map((entry) => day[entry.key])));
  const groupWidth = plotWidth / Math.max(1, props.days.length);
  const barWidth = Math.max(2, (groupWidth - 6) / series.length);
  const summary = props.days
    .map(
      (day) =>
        `${day.date}: ${day.sent} sent, ${day.delivered} delivered, ${day.failed} failed, ${day.received} received`,
    )
    .join('; ');

  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Messages per day. ${summary}`}>
        {scale.ticks.map((tick) => {
          const y = margin.top + plotHeight - scale.heightOf(tick, plotHeight);
          return (
            <g key={tick}>
              <line x1={margin.left} x2={width - margin.right} y1={y} y2={y} className="grid-line" />
              <text x={margin.left - 6} y={y + 4} textAnchor="end" className="axis-label">
                {tick}
              </text>
            </g>
          );
        })}
        {props.days.map((day, index) => {
          const x0 = margin.left + index * groupWidth + 3;
          return (
            <g key={day.date}>
              {series.map((entry, seriesIndex) => {
                const barHeight = scale.heightOf(day[entry.key], plotHeight);
                return (
                  <rect
                    key={entry.key}
                    className={entry.className}
                    x={x0 + seriesIndex * barWidth}
                    y={margin.top + plotHeight - barHeight}
                    width={barWidth - 1}
                    height={barHeight}
                  >
                    <title>{`${day.date} — ${entry.label}: ${day[entry.key]}`}</title>
                  </rect>
                );
              })}
              <text x={x0 + (groupWidth - 6) / 2} y={height - 10} textAnchor="middle" className="axis-label">
                {day.date.slice(5)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {series.map((entry) => (
          <span key={entry.key}>
            <span className={`swatch ${entry.className}`} /> {entry.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
