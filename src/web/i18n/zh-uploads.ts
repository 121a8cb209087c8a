// Chinese text of the Excel uploads (/user/upload; /admin/upload's two tabs use the shared form and
// result, components/excel-upload.tsx); part of the one catalog (zh.ts re-exports it as zh.uploads).
export const uploadsText = {
  // /user/upload
  intro: '用Excel批量录入采购记录：导入新增记录，更新修改已有记录的数目。请使用模板的列。',
  downloadTemplate: '下载模板',
  file: '表格文件（.xlsx、.xls、.ods、.csv）',
  fileRequired: '请选择要上传的文件',
  fileNotSheet: '请选择表格文件（.xlsx、.xls、.ods 或 .csv）',
  fileChosen: (name: string, size: string) => `${name}（${size}）`,
  import: '导入',
  update: '更新',
  modeHint: '导入：新增文件中的采购记录；更新：按快递单号修改已有采购记录的数目',
  uploading: (name: string, percent: number | null) => (percent === null ? `正在上传 ${name}…` : `正在上传 ${name}：${percent}%`),
  processing: (name: string) => `${name} 已上传，正在处理，大文件需要一些时间…`,
  uploadFailed: '上传失败',
  uploadFailedWith: (reason: string) => `上传失败：${reason}`,

  // the result
  resultTitle: (mode: string, name: string) => `${mode}结果 · ${name}`,
  caption: '上传结果',
  totals: '统计',
  succ: '成功',
  skip: '跳过',
  error: '失败',
  count: (n: number) => `${n} 条`,
  clear: '清除结果',
  colLine: '行号',
  colTracking: '快递单号',
  colUpc: 'UPC',
  colName: '商品名称',
  colItemId: '商品ID',
  colExpress: '快递',
  colQty: '数目',
  colOldQty: '原数目',
  colOpStatus: '结果',
  colMsg: '信息',
  opStatus: { succ: '成功', skip: '跳过', error: '失败' },
  // a large file's result: the rows that need attention, then its fine rows paged by the server
  attentionHeading: (n: number) => (n > 0 ? `需要处理的行（失败、跳过和有提醒的行）：${n} 条` : '没有需要处理的行'),
  attentionCaption: '需要处理的行',
  fineCaption: (n: number) => `其余成功的行：${n} 条`,
  fineGone: '这些行的结果已过期（保留1小时），请以上方统计为准',

  // leaving with results on screen
  leaveTitle: '离开此页面',
  leaveConfirm: '离开后将不再显示本次上传的结果，确定离开吗？',
  leave: '离开',
  stay: '留在此页',
} as const;
