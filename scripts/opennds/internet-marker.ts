/** The first word of every answer of the harness's internet web server: tells it from openNDS's interception. */
export const INTERNET_MARKER = 'ndst-internet-ok';
