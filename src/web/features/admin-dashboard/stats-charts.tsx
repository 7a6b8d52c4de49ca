/**
 * The dashboard's plots, drawn with Recharts. Only the dashboard loads this module, on demand
 * (React.lazy), so neither the public pages nor the other admin screens carry the library. The
 * plots are pictures of numbers their figures also give as text (a summary and a table): they are
 * hidden from screen readers and take no keyboard focus.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const AXIS_TICK = { fontSize: 12, fill: '#475569' };
const GRID = '#e2e8f0';

export interface Series {
  key: string;
  name: string;
  color: string;
  /** Series with the same stack are drawn on top of each other. */
  stack?: string;
}

/** One bar (or stack) per day, labelled "28 Nov". */
export function DailyBars({
  data,
  series,
}: {
  data: Array<Record<string, string | number>>;
  series: Series[];
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 4, bottom: 0, left: -12 }}>
        <CartesianGrid stroke={GRID} vertical={false} />
        <XAxis
          dataKey="label"
          tick={AXIS_TICK}
          tickLine={false}
          interval="preserveStartEnd"
          minTickGap={14}
        />
        <YAxis allowDecimals={false} tick={AXIS_TICK} tickLine={false} axisLine={false} width={44} />
        <Tooltip cursor={{ fill: '#f1f5f9' }} />
        {series.length > 1 && <Legend iconType="square" itemSorter={null} wrapperStyle={{ fontSize: 12 }} />}
        {series.map((one) => (
          <Bar
            key={one.key}
            dataKey={one.key}
            name={one.name}
            fill={one.color}
            isAnimationActive={false}
            {...(one.stack ? { stackId: one.stack } : {})}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** One horizontal bar per ghadi, its name beside it. */
export function GhadiBars({
  data,
  name,
  color,
  unit,
  max,
}: {
  data: Array<{ name: string; value: number }>;
  name: string;
  color: string;
  unit: string;
  /** The axis's end (100 for a percentage); the data's largest value otherwise. */
  max?: number;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 4, right: 12, bottom: 0, left: 0 }}
      >
        <CartesianGrid stroke={GRID} horizontal={false} />
        <XAxis
          type="number"
          domain={[0, max ?? 'auto']}
          tick={AXIS_TICK}
          tickLine={false}
          unit={unit}
          allowDecimals={false}
        />
        <YAxis
          type="category"
          dataKey="name"
          tick={AXIS_TICK}
          tickLine={false}
          axisLine={false}
          width={96}
          interval={0}
        />
        <Tooltip cursor={{ fill: '#f1f5f9' }} formatter={(value) => [`${value}${unit}`, name]} />
        <Bar dataKey="value" name={name} fill={color} isAnimationActive={false} barSize={16} />
      </BarChart>
    </ResponsiveContainer>
  );
}
