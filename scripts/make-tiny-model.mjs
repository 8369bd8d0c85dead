// `node scripts/make-tiny-model.mjs <outDir> [family]`: writes a tiny BERT-like model, generated offline and
// deterministically, for the onnx engine's tests and benchmark (no download, no Python). It is laid out the way
// transformers.js reads a local model (`<localModelPath>/<model>/...`, here `<outDir>/...`):
//   tokenizer.json         a WordPiece tokenizer (BERT normaliser and pre-tokeniser, [CLS] … [SEP] template)
//   tokenizer_config.json  required too: transformers.js only loads tokenizer.json when this file exists
//   config.json            model_type bert, hidden_size, max_position_embeddings, vocab_size
//   onnx/model.onnx        the fp32 file (dtype 'fp32'; the default q8 dtype would look for model_quantized.onnx)
// The graph: token + position + token-type embeddings (pseudo-random, seeded), plus half the attention-masked mean
// of the sequence (so each token sees its neighbours, which late chunking relies on), through a dense layer and
// Tanh. Inputs input_ids, attention_mask, token_type_ids (int64 [batch, seq]); output last_hidden_state (float
// [batch, seq, hidden]). The protobuf is written with protobufjs from the few ONNX messages it needs (below).
//
// `family` picks which of the catalogue's model families it imitates (default `embedding`):
//   embedding       the above (BertModel): mean-pooled vectors, and per-token ones for multi-vector output
//   cross-encoder   BertForSequenceClassification: the same layers, then a masked mean and a dense head to one
//                   logit per sequence (output `logits` [batch, 1]), scoring query–document pairs read together
//   task-adapters   as the original's v3 ONNX export is called: model_type xlm-roberta, inputs input_ids,
//                   attention_mask and a scalar `task_id` choosing a row of a task table added to every token
//                   (the adapters), output `text_embeds`; config.json lists the tasks (`lora_adaptations`)
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import protobuf from 'protobufjs'

export const tinyModel = { hiddenSize: 32, maxPositions: 512, typeVocabSize: 2, seed: 20_240_601 }

const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789']
const punctuation = [...'.,!?;:\'"()-/&%$#@*+=<>[]_']
const suffixes = ['s', 'es', 'ed', 'ing', 'er', 'ers', 'ly', 'est', 'tion', 'ment', 'ness', 'able', 'al']
const words = `the of and to a in is it you that he was for on are with as i his they be at one have this from or had by
not word but what some we can out other were all there when up use your how said an each she which do their time if
will way about many then them write would like so these her long make thing see him two has look more day could go
come did number sound no most people my over know water than call first who may down side been now find any new work
part take get place made live where after back little only round man year came show every good me give our under
name very through just form sentence great think say help low line turn cause much mean before move right boy old too
same tell does set three want air well also play small end put home read hand large spell add even land here must big
high such follow act why ask men change went light kind off need house picture try us again animal point mother world
near build self earth father cat dog sat mat search model vector text document query embedding rerank token data
ocean star quantum physics music city river mountain computer language`.split(/\s+/)

/** WordPiece vocabulary: specials first (ids 0–4), then whole words, then single characters and `##` pieces. */
export function vocabulary() {
  const pieces = [
    ...specials,
    ...punctuation,
    ...letters,
    ...letters.map((c) => `##${c}`),
    ...suffixes.map((s) => `##${s}`),
    ...words,
  ]
  return Object.fromEntries([...new Set(pieces)].map((piece, id) => [piece, id]))
}

function tokenizerJson(vocab) {
  const id = (token) => vocab[token]
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [token, { id: token, ids: [id(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  }
}

const tokenizerConfig = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: tinyModel.maxPositions,
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  mask_token: '[MASK]',
  clean_up_tokenization_spaces: true,
}

/** The original's adapter names, in its `task_id` order. */
export const taskAdapters = ['retrieval.query', 'retrieval.passage', 'separation', 'classification', 'text-matching']

export const families = ['embedding', 'cross-encoder', 'task-adapters']

function modelConfig(vocabSize, family) {
  const byFamily = {
    embedding: { model_type: 'bert', architectures: ['BertModel'] },
    'cross-encoder': {
      model_type: 'bert',
      architectures: ['BertForSequenceClassification'],
      num_labels: 1,
      id2label: { 0: 'LABEL_0' },
      label2id: { LABEL_0: 0 },
    },
    'task-adapters': {
      model_type: 'xlm-roberta',
      architectures: ['XLMRobertaModel'],
      lora_adaptations: taskAdapters,
    },
  }
  return {
    ...byFamily[family],
    hidden_size: tinyModel.hiddenSize,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: tinyModel.hiddenSize,
    max_position_embeddings: tinyModel.maxPositions,
    type_vocab_size: tinyModel.typeVocabSize,
    vocab_size: vocabSize,
    pad_token_id: 0,
  }
}

// The subset of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto) this graph uses, with its field numbers.
const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            ir_version: { type: 'int64', id: 1 },
            producer_name: { type: 'string', id: 2 },
            graph: { type: 'GraphProto', id: 7 },
            opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            op_type: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            i: { type: 'int64', id: 3 },
            // AttributeType: INT = 2.
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            // DataType: FLOAT = 1, INT64 = 7.
            data_type: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            raw_data: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: {
          fields: { tensor_type: { type: 'Tensor', id: 1 } },
          nested: {
            Tensor: {
              fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } },
            },
          },
        },
        TensorShapeProto: {
          fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } },
          nested: {
            Dimension: { fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } } },
          },
        },
      },
    },
  },
}

const FLOAT = 1
const INT64 = 7

/** mulberry32: a small seeded generator, so the same seed always writes the same weights. */
function seededRandom(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const floatTensor = (name, dims, values) => ({
  name,
  dims,
  data_type: FLOAT,
  raw_data: Buffer.from(Float32Array.from(values).buffer),
})
const int64Tensor = (name, dims, values) => ({
  name,
  dims,
  data_type: INT64,
  raw_data: Buffer.from(BigInt64Array.from(values, BigInt).buffer),
})
const randomTensor = (name, dims, random, scale) =>
  floatTensor(
    name,
    dims,
    Array.from({ length: dims.reduce((a, b) => a * b, 1) }, () => (random() * 2 - 1) * scale),
  )

const node = (op_type, input, output, attribute = []) => ({ op_type, input, output, name: output[0], attribute })
const intAttribute = (name, i) => ({ name, i, type: 2 })
const valueInfo = (name, elem_type, dims) => ({
  name,
  type: {
    tensor_type: {
      elem_type,
      shape: { dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })) },
    },
  },
})

function modelProto(vocabSize, family) {
  const { hiddenSize: h, maxPositions, typeVocabSize, seed } = tinyModel
  const random = seededRandom(seed)
  const tasks = family === 'task-adapters'
  const initializer = [
    randomTensor('word_embeddings', [vocabSize, h], random, 1),
    randomTensor('position_embeddings', [maxPositions, h], random, 0.1),
    randomTensor('token_type_embeddings', [typeVocabSize, h], random, 0.1),
    randomTensor('dense', [h, h], random, 1 / Math.sqrt(h)),
    int64Tensor('zero', [], [0]),
    int64Tensor('one', [], [1]),
    int64Tensor('axis_seq', [1], [1]),
    int64Tensor('axis_last', [1], [2]),
    floatTensor('one_float', [], [1]),
    floatTensor('half', [], [0.5]),
    // After the shared weights, so the embedding family's weights stay what they always were.
    ...(tasks ? [randomTensor('task_embeddings', [taskAdapters.length, h], random, 1)] : []),
    ...(family === 'cross-encoder'
      ? [randomTensor('classifier', [h, 1], random, 1), floatTensor('classifier_bias', [1], [0])]
      : []),
  ]
  // The third addend of every token: its token type's row, or (task adapters) the chosen task's row.
  const third = tasks
    ? [node('Gather', ['task_embeddings', 'task_id'], ['token_types'])]
    : [node('Gather', ['token_type_embeddings', 'token_type_ids'], ['token_types'])]
  const output = tasks ? 'text_embeds' : 'last_hidden_state'
  const head =
    family === 'cross-encoder'
      ? [
          node('Unsqueeze', ['mask', 'axis_last'], ['head_mask']),
          node('Mul', ['last_hidden_state', 'head_mask'], ['head_masked']),
          node('ReduceSum', ['head_masked', 'axis_seq'], ['head_sum'], [intAttribute('keepdims', 0)]),
          node('ReduceSum', ['head_mask', 'axis_seq'], ['head_count'], [intAttribute('keepdims', 0)]),
          node('Div', ['head_sum', 'head_count'], ['pooled']),
          node('MatMul', ['pooled', 'classifier'], ['head_logits']),
          node('Add', ['head_logits', 'classifier_bias'], ['logits']),
        ]
      : []
  const nodes = [
    node('Gather', ['word_embeddings', 'input_ids'], ['words']),
    node('Shape', ['input_ids'], ['input_shape']),
    node('Gather', ['input_shape', 'one'], ['seq_len']),
    node('Range', ['zero', 'seq_len', 'one'], ['position_ids']),
    node('Gather', ['position_embeddings', 'position_ids'], ['positions']),
    ...third,
    node('Add', ['words', 'positions'], ['words_positions']),
    node('Add', ['words_positions', 'token_types'], ['embeddings']),
    node('Cast', ['attention_mask'], ['mask'], [intAttribute('to', FLOAT)]),
    node('Unsqueeze', ['mask', 'axis_last'], ['mask_3d']),
    node('Mul', ['embeddings', 'mask_3d'], ['masked']),
    node('ReduceSum', ['masked', 'axis_seq'], ['masked_sum'], [intAttribute('keepdims', 1)]),
    node('ReduceSum', ['mask_3d', 'axis_seq'], ['mask_count'], [intAttribute('keepdims', 1)]),
    node('Max', ['mask_count', 'one_float'], ['mask_count_safe']),
    node('Div', ['masked_sum', 'mask_count_safe'], ['context']),
    node('Mul', ['context', 'half'], ['context_half']),
    node('Add', ['embeddings', 'context_half'], ['mixed']),
    node('MatMul', ['mixed', 'dense'], ['projected']),
    node('Tanh', ['projected'], [family === 'cross-encoder' ? 'last_hidden_state' : output]),
    ...head,
  ]
  const inputs = [
    valueInfo('input_ids', INT64, ['batch', 'sequence']),
    valueInfo('attention_mask', INT64, ['batch', 'sequence']),
    tasks ? valueInfo('task_id', INT64, []) : valueInfo('token_type_ids', INT64, ['batch', 'sequence']),
  ]
  return {
    ir_version: 8,
    producer_name: 'make-tiny-model',
    opset_import: [{ domain: '', version: 17 }],
    graph: {
      name: family === 'embedding' ? 'tiny-bert' : `tiny-${family}`,
      node: nodes,
      initializer,
      input: inputs,
      output: [
        family === 'cross-encoder'
          ? valueInfo('logits', FLOAT, ['batch', 1])
          : valueInfo(output, FLOAT, ['batch', 'sequence', h]),
      ],
    },
  }
}

export function encodeModel(vocabSize, family = 'embedding') {
  const ModelProto = protobuf.Root.fromJSON(onnxSchema).lookupType('onnx.ModelProto')
  const message = modelProto(vocabSize, family)
  const problem = ModelProto.verify(message)
  if (problem) throw new Error(`tiny model: ${problem}`)
  return ModelProto.encode(ModelProto.fromObject(message)).finish()
}

/** Writes the model's four files under `outDir` and returns their paths. */
export function makeTinyModel(outDir, family = 'embedding') {
  if (!families.includes(family)) throw new Error(`tiny model: the family must be one of ${families.join(', ')}`)
  const vocab = vocabulary()
  const size = Object.keys(vocab).length
  const files = {
    tokenizer: join(outDir, 'tokenizer.json'),
    tokenizerConfig: join(outDir, 'tokenizer_config.json'),
    config: join(outDir, 'config.json'),
    model: join(outDir, 'onnx', 'model.onnx'),
  }
  mkdirSync(join(outDir, 'onnx'), { recursive: true })
  writeFileSync(files.tokenizer, JSON.stringify(tokenizerJson(vocab)))
  writeFileSync(files.tokenizerConfig, JSON.stringify(tokenizerConfig, null, 2))
  writeFileSync(files.config, JSON.stringify(modelConfig(size, family), null, 2))
  writeFileSync(files.model, encodeModel(size, family))
  return files
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = process.argv[2]
  if (!outDir) {
    console.error(`usage: node scripts/make-tiny-model.mjs <outDir> [${families.join('|')}]`)
    process.exit(2)
  }
  const files = makeTinyModel(resolve(outDir), process.argv[3])
  console.log(`tiny model written: ${Object.values(files).join(', ')}`)
}
