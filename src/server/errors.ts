// The error codes of SPEC §8 and the HTTP status each travels with (DECISIONS "Wire contract").
export const Code = {
  ok: 'A00000',
  badParam: 'A00001',
  unauthorized: 'A00002',
  forbidden: 'A00003',
  notFound: 'A00004',
  system: 'A00005',
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export class AppError extends Error {
  constructor(
    readonly code: Code,
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (msg: string) => new AppError(Code.badParam, 400, msg);
export const unauthorized = (msg = '未登录或登录已过期') => new AppError(Code.unauthorized, 401, msg);
export const forbidden = (msg = '没有权限') => new AppError(Code.forbidden, 403, msg);
export const notFound = (msg = '记录不存在') => new AppError(Code.notFound, 404, msg);
export const conflict = (msg: string) => new AppError(Code.notFound, 409, msg);
// Too many attempts: A00004 ("response error") so the client shows the message itself, not the
// generic A00001 '用户名或密码错误' mapping of the login page.
export const tooMany = (msg: string) => new AppError(Code.notFound, 429, msg);
/** Declared in openapi.yaml, delivered by a later issue. */
export const notImplemented = () => new AppError(Code.system, 501, '未实现');
