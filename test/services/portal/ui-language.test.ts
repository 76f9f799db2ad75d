import test from 'ava';
import { acceptedLanguage, chooseLanguage, languageCookie } from '../../../services/portal/ui/language.js';

test('Accept-Language picks the supported language with the highest q, then the first listed', (t) => {
  t.is(acceptedLanguage('vi-VN,vi;q=0.9,en-US;q=0.8'), 'vi');
  t.is(acceptedLanguage('en;q=0.5, vi;q=0.6'), 'vi');
  t.is(acceptedLanguage('en, vi'), 'en');
  t.is(acceptedLanguage('vi;q=0, en;q=0.1'), 'en');
  t.is(acceptedLanguage('fr, de;q=0.8'), undefined);
  t.is(acceptedLanguage(undefined), undefined);
  t.is(acceptedLanguage('vi;q=abc'), undefined);
});

test('the lang cookie counts only when it names a UI language', (t) => {
  t.is(languageCookie('sid=x; lang=vi'), 'vi');
  t.is(languageCookie('lang=xx; sid=y'), undefined);
  t.is(languageCookie(undefined), undefined);
});

test('the cookie wins over the header, and English is the fallback', (t) => {
  t.is(chooseLanguage('lang=en', 'vi'), 'en');
  t.is(chooseLanguage(undefined, 'vi-VN'), 'vi');
  t.is(chooseLanguage(undefined, 'ja'), 'en');
});
