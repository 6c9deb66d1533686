// Today's news for the place: up to 10 items, linked to the articles.
import { api, newsURL } from './api.js';
import { $, el, text } from './dom.js';
import { i18n, t } from './i18n.js';
import { sameTarget, state } from './state.js';

function newsItem(item) {
  const safe = /^https?:\/\//i.test(item.url || '');
  const title = safe
    ? el('a', { href: item.url, text: item.title, rel: 'noopener noreferrer', target: '_blank' })
    : el('strong', { text: item.title });
  const li = el('li', { dataset: { testid: 'news-item' } }, el('time', { text: String(item.publishedAt).slice(11, 16), dateTime: item.publishedAt }), title);
  if (item.summary) li.append(el('p', { text: item.summary }));
  return li;
}

/** News items shown before "… and N more". */
const SHOWN = 4;

export async function loadNews(target) {
  $('news').hidden = false;
  text('news-status', t('newsLoading'));
  try {
    const data = await api(newsURL(target));
    if (!sameTarget(state.target, target)) return;
    const items = (data && Array.isArray(data.items) ? data.items : []).slice(0, 10);
    // Where the items really come from: BBC News by region ("US & Canada" for New York), NewsAPI by
    // the place's name.
    const feed = data && data.feed;
    const region = feed ? (feed.code === 'place' ? feed.region : t(`news_${feed.code}`)) : data && data.place;
    // No feed in the reader's language: the items are in English, and it says so.
    const english = feed && feed.language === 'en' && i18n.code !== 'en' ? ` (${t('newsInEnglish')})` : '';
    text('news-place', region ? `· ${feed ? `${feed.source}, ` : ''}${region}${english}` : '');
    text('news-status', items.length ? '' : t('newsNone'));
    // The first few at once (news is not the weather: it should not take screens of the page); the
    // rest behind one button.
    const rows = items.map(newsItem);
    rows.slice(SHOWN).forEach((row) => { row.hidden = true; });
    const more = items.length > SHOWN
      ? el('li', { className: 'news-more' }, el('button', { type: 'button', className: 'ghost', text: t('andMore', { n: items.length - SHOWN }),
        onclick: (e) => { rows.forEach((row) => { row.hidden = false; }); e.target.closest('li').remove(); } }))
      : null;
    $('news-list').replaceChildren(...rows, ...(more ? [more] : []));
  } catch (e) {
    text('news-status', e.kind === 'offline' ? t('newsOffline') : t('newsUnavailable'));
  }
}
