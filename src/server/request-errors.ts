// Requests refused before a handler runs, by Fastify, its body parsers, @fastify/multipart (busboy)
// or Node's HTTP parser: each answer is the {code, msg} envelope with a SPEC section 8 code and a
// Chinese message, never the framework's English text. A00001 travels with HTTP 400, 413 when the
// body is too large (DECISIONS "Wire contract"), 408 / 431 for what Node refuses before routing.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Code } from './errors.ts';

type Answer = { status: number; msg: string };

/** The body parsers' and multipart's refusals; undefined for an error that is not one of them. */
export function requestErrorAnswer(err: Error & { code?: string; statusCode?: number }, contentType: string | undefined): Answer | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, msg: '参数错误：请求体不是有效的JSON' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, msg: `参数错误：不支持的Content-Type ${contentType ?? ''}`.trim() };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, msg: '参数错误：上传内容过大' };
    case 'FST_FILES_LIMIT':
      return { status: 400, msg: '参数错误：一次只能上传一个文件' };
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 400, msg: '参数错误：表单字段过多' };
    case 'FST_PROTO_VIOLATION':
      // multipart does not say which name it was: every name of Object.prototype is refused.
      return { status: 400, msg: '参数错误：不允许的字段 __proto__（字段名不能是 __proto__、constructor 等保留名）' };
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return { status: 400, msg: '参数错误：表单字段不是有效的JSON' };
    case 'FST_MP_PREMATURE_CLOSE':
      return { status: 400, msg: '参数错误：上传未完成，连接已关闭' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, msg: '参数错误：请求体长度与Content-Length不符' };
  }
  // busboy's own errors carry no code.
  if (err.message === 'Multipart: Boundary not found') return { status: 400, msg: '参数错误：multipart请求缺少boundary' };
  if (/^(Multipart: |Malformed |Unexpected end of )/.test(err.message)) return { status: 400, msg: '参数错误：multipart请求体格式错误' };
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return { status: 400, msg: '参数错误：请求无效' };
  return undefined;
}

/** Fastify's frameworkErrors: the router could not take the path apart. */
export function frameworkAnswer(err: Error & { code?: string }, maxParamLength: number): Answer & { code: Code } {
  switch (err.code) {
    case 'FST_ERR_BAD_URL':
      return { status: 400, code: Code.badParam, msg: '参数错误：路径不是有效的URL编码（UTF-8）' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { status: 400, code: Code.badParam, msg: `参数错误：路径参数最多 ${maxParamLength} 个字符` };
    default:
      return { status: 500, code: Code.system, msg: '系统错误' };
  }
}

/**
 * Node's clientError: a request line or headers it cannot parse, headers (the URL included) over
 * its 16 KB limit, or a request not received in time. Answered on the socket, which is then closed.
 */
export function clientErrorAnswer(this: FastifyInstance, err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return socket.destroy();
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    this.log.info({ remoteAddress: socket.remoteAddress }, 'request dropped: not received whole within its time limit');
  const [status, reason, msg] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', '参数错误：请求未在限定时间内完整送达，请重试']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', '参数错误：地址或请求头过长']
        : [400, 'Bad Request', '参数错误：请求格式错误'];
  const body = JSON.stringify({ code: Code.badParam, msg });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
