import type { Language } from '../../../shared/page-language.js';
import { RATES, TIME_TABLE } from '../../../shared/promo-tables.js';
import { timeTableName } from '../../components/public/chrome-text.js';
import { HOME_TEXT } from './home-text.js';

/** The spec's static promotional text: rates. */
export function RatesSection({ siteName, language }: { siteName: string; language: Language }) {
  const text = HOME_TEXT[language].rates;
  return (
    <section
      aria-labelledby="rates-title"
      className="rounded-lg bg-gradient-to-br from-indigo-700 to-slate-900 p-4 text-white shadow"
    >
      <h2 id="rates-title" className="text-lg font-bold text-amber-300">
        {text.title(siteName)}
      </h2>
      <ul className="grid grid-cols-2 gap-2">
        {RATES.map((rate) => (
          <li key={rate.game} className="rounded-md bg-white/10 px-3 py-2 text-center">
            <span className="block text-sm uppercase tracking-wide text-slate-200">
              {text.rate(text.games[rate.game])}
            </span>
            <span className="text-2xl font-extrabold">
              {rate.stake}
              {text.for}
              {rate.payout}
            </span>
          </li>
        ))}
      </ul>
      <ul className="space-y-2 text-sm text-slate-100">
        {text.promises.map((promise) => (
          <li key={promise} className="flex gap-2">
            <span aria-hidden="true" className="text-amber-300">
              ✔
            </span>
            {promise}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The spec's fixed time table. */
export function TimeTableSection({ language }: { language: Language }) {
  const text = HOME_TEXT[language].timeTable;
  return (
    <section id="time-table" aria-labelledby="time-table-title" className="scroll-mt-4">
      <div className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-sm">
          <caption
            id="time-table-title"
            className="bg-slate-800 px-3 py-2 text-left text-base font-bold text-white"
          >
            {text.caption}
          </caption>
          <thead>
            <tr className="bg-slate-100 text-left">
              <th scope="col" className="px-3 py-2">
                {text.ghadi}
              </th>
              <th scope="col" className="px-3 py-2">
                {text.time}
              </th>
            </tr>
          </thead>
          <tbody>
            {TIME_TABLE.map((slot) => (
              <tr key={slot.name} className="border-t border-slate-100">
                <th scope="row" className="px-3 py-2 text-left font-semibold">
                  {timeTableName(slot.name, language)}
                </th>
                <td className="px-3 py-2">{slot.time}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
