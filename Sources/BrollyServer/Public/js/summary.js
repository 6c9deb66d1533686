// One line over the hour strip, as the apps people like have it: "Snow from about 17:00, lows near
// −9° tonight" — when rain or snow starts or stops in the next 24 hours (else that it stays dry),
// and tonight's low (after 15:00) or today's high, in the reader's language and units.
import { t } from './i18n.js';
import { shortTemp } from './units.js';

/** Snow, as the server's one view of the weather names it (the condition's icon). */
const snowy = (h) => h.condition.icon === 'snow';
/** An hour it rains or snows in: some falls and it is not unlikely, or it is likely. */
const wet = (h) => ((h.precipitation ?? 0) >= 0.1 && (h.precipitationProbability ?? 100) >= 40) || (h.precipitationProbability ?? 0) >= 60;
const hourOf = (h) => String(h.time).slice(11, 16);

export function summaryText(doc) {
  const hours = (doc.hours || []).slice(0, 24);
  if (hours.length < 2) return '';
  let weather;
  if (wet(hours[0])) {
    const snow = snowy(hours[0]);
    const dry = hours.findIndex((h) => !wet(h));
    weather = dry > 0 ? t(snow ? 'summarySnowUntil' : 'summaryRainUntil', { time: hourOf(hours[dry]) }) : t(snow ? 'snowWord' : 'rainWord');
  } else {
    const start = hours.findIndex(wet);
    weather = start > 0
      ? t(snowy(hours[start]) ? 'summarySnowFrom' : 'summaryRainFrom', { time: hourOf(hours[start]) })
      : t('summaryDry');
  }
  // Today's high before 15:00; after it, tonight's low (until 09:00 tomorrow).
  const hour = Number.parseInt(String(hours[0].time).slice(11, 13), 10);
  const today = String(hours[0].time).slice(0, 10);
  let temperature;
  if (hour < 15) {
    const rest = hours.filter((h) => String(h.time).startsWith(today));
    temperature = t('summaryHighs', { temp: shortTemp(Math.max(...rest.map((h) => h.temperature))) });
  } else {
    const night = hours.filter((h) => String(h.time).startsWith(today) || Number.parseInt(String(h.time).slice(11, 13), 10) < 9);
    temperature = t('summaryLows', { temp: shortTemp(Math.min(...night.map((h) => h.temperature))) });
  }
  return t('summary', { weather, temperature });
}
