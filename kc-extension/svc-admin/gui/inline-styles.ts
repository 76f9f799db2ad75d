/**
 * The `style="..."` attribute values dmn-js writes through HTML markup (min-dom `domify`), which
 * a Content-Security-Policy without 'unsafe-inline' blocks. The page allows exactly these by
 * hash ('unsafe-hashes'). Sources: dmn-js-shared/lib/util/PoweredByUtil.js (the bpmn.io
 * project logo the dmn-js licence requires, and its notice box) and
 * dmn-js-decision-table/lib/features/drag-and-drop/DragAndDrop.js (the invisible drag image).
 * If dmn-js changes one, the browser test sees a CSP violation.
 */
export const DMN_JS_INLINE_STYLES: readonly string[] = [
  'position: absolute; bottom: 15px; right: 15px; z-index: 100;',
  'vertical-align:middle',
  'z-index: 1001;position: fixed;top: 0;left: 0;right: 0;bottom: 0',
  'width: 100%;height: 100%;background: rgba(40,40,40,0.2)',
  'position: absolute;left: 50%;top: 40%;transform: translate(-50%);width: 260px;padding: 10px;background: white;box-shadow: 0 1px 4px rgba(0,0,0,0.3);font-family: Helvetica, Arial, sans-serif;font-size: 14px;display: flex;line-height: 1.3',
  'margin: 15px 20px 15px 10px; align-self: center;',
  '\n          visibility: hidden;\n          position: fixed;\n          top: -10000px\n      ',
];
