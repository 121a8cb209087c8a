// Turns Ajv's first error into the Chinese A00001 message a user can act on; it always names the field.
import type { FastifySchemaValidationError } from 'fastify/types/schema';

const where: Record<string, string> = { body: '请求体', querystring: '查询参数', params: '路径参数', headers: '请求头' };

export function validationMessage(errors: FastifySchemaValidationError[], context: string): string {
  const e = errors[0];
  if (!e) return '参数错误';
  const params = e.params as Record<string, unknown>;
  const base = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = (name: string) => (base ? `${base}.${name}` : name);
  const subject = base || where[context] || context;
  switch (e.keyword) {
    case 'required':
      return `参数错误：缺少字段 ${field(String(params.missingProperty))}`;
    case 'additionalProperties':
      return `参数错误：不允许的字段 ${field(String(params.additionalProperty))}`;
    case 'type':
      return `参数错误：字段 ${subject} 类型应为 ${String(params.type)}`;
    case 'enum':
      return `参数错误：字段 ${subject} 取值无效，可选值 ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minLength':
      return Number(params.limit) === 1 ? `参数错误：字段 ${subject} 不能为空` : `参数错误：字段 ${subject} 至少 ${String(params.limit)} 个字符`;
    case 'maxLength':
      return `参数错误：字段 ${subject} 最多 ${String(params.limit)} 个字符`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `参数错误：字段 ${subject} 不能小于 ${String(params.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `参数错误：字段 ${subject} 不能大于 ${String(params.limit)}`;
    case 'multipleOf':
      return `参数错误：字段 ${subject} 最多两位小数`;
    case 'format':
    case 'pattern':
      return `参数错误：字段 ${subject} 格式错误`;
    default:
      return `参数错误：字段 ${subject} ${e.message ?? '无效'}`;
  }
}
