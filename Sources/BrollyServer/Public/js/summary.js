// One line over the hour strip, as the apps people like have it: "Snow from about 17:00, lows near
// −9° tonight" — written from the server's one view of the weather (`doc.summary`: when rain or snow
// starts or stops in the next 24 hours, the next two hours from the 15-minute nowcast so that it
// agrees with the next-hour line, and tonight's low or today's high), in the reader's language and
// units. Nothing is worked out here.
import { t } from './i18n.js';
import { shortTemp } from './units.js';

const hourOf = (iso) => String(iso).slice(11, 16);

export function summaryText(doc) {
  const s = doc.summary;
  if (!s) return '';
  let weather;
  if (s.fall === 'now') {
    weather = s.time ? t(s.snow ? 'summarySnowUntil' : 'summaryRainUntil', { time: hourOf(s.time) }) : t(s.snow ? 'snowWord' : 'rainWord');
  } else if (s.fall === 'from') {
    weather = t(s.snow ? 'summarySnowFrom' : 'summaryRainFrom', { time: hourOf(s.time) });
  } else {
    weather = t('summaryDry');
  }
  const temperature = t(s.temperatureIs === 'tonightLow' ? 'summaryLows' : 'summaryHighs', { temp: shortTemp(s.temperature) });
  return t('summary', { weather, temperature });
}
