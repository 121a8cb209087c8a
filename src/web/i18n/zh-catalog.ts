// Chinese text of the catalog screens; part of the one catalog (zh.ts re-exports it as zh.catalog).
// Exact SPEC strings are marked.
export const catalogText = {
  common: {
    edit: '编辑',
    save: '保存',
    back: '返回列表',
    actions: '操作',
    saveSuccess: '保存成功', // SPEC §8
    createSuccess: '创建成功', // SPEC §8
  },

  status: {
    open: '启用',
    close: '停用',
  },

  itemList: {
    add: '新增商品',
    keyword: '关键字',
    keywordPlaceholder: '商品ID、名称或UPC',
    status: '状态',
    statusAll: '全部',
    sort: '排序',
    sortNewest: '最新创建在前',
    sortOldest: '最早创建在前',
    caption: '商品列表',
    colId: 'ID',
    colItemName: '商品名称',
    colUpc: 'UPC',
    colUrl: '链接',
    colStatus: '状态',
    colProductId: '商品ID',
    colPrice: '价格',
    openLink: '打开',
  },

  item: {
    newTitle: '新增商品',
    editTitle: (name: string) => `编辑商品：${name}`,
    notFound: '商品不存在或已被删除。',
    itemName: '商品名称',
    upc: 'UPC',
    url: '链接',
    urlHint: '不以 http:// 或 https:// 开头时会自动加上 http://',
    status: '状态',
    productId: '商品ID',
    price: '参考价格',
    priceHint: '选填；看板任务未填价格时可取此价格',
    priceInvalid: '价格必须是不小于0的数字，最多两位小数',
    tooLong: (label: string, max: number) => `${label}不能超过${max}个字符`,
  },

  picker: {
    label: '商品',
    placeholder: '输入商品名称、UPC或商品ID搜索',
    searching: '搜索中…',
    noResult: '没有找到匹配的商品',
    typeToSearch: '输入关键字开始搜索',
    clear: '清除所选商品',
    upc: (upc: string) => `UPC ${upc || '—'}`,
    closed: '已停用',
  },
} as const;
