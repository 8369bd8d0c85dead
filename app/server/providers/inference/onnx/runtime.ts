import type { PreTrainedTokenizer } from '@huggingface/transformers'
import type { ModelFiles } from './model-files'
import type { TokenStates } from './pooling'
import { capacity, type Frame } from './sequences'

/** A loaded model: its tokenizer (without special tokens), their frame, and one session run per batch. */
export interface LoadedModel {
  frame: Frame
  tokenize(text: string): number[]
  /** Whether the graph takes a `task_id` input (task adapters, as the original's v3 ONNX export has). */
  takesTaskId: boolean
  run(sequences: number[][], taskId?: number): Promise<TokenStates>
}

/**
 * Loads tokenizer and model with transformers.js on onnxruntime-node. The library (and its native runtime) is
 * imported here, on first use, so a server configured for another engine never loads it.
 */
export async function loadModel(files: ModelFiles, modelsDir: string): Promise<LoadedModel> {
  const { AutoModel, AutoTokenizer, Tensor, env } = await import('@huggingface/transformers')
  // Local files only: never the Hugging Face Hub, nor the library's download cache. The model is named by its
  // absolute folder, which transformers.js reads as a path (not a Hub id), so `localModelPath`, a process-wide
  // setting, is only a backstop and two engines with different folders cannot mix them up.
  env.allowRemoteModels = false
  env.allowLocalModels = true
  env.useFSCache = false
  env.localModelPath = modelsDir
  const local = { local_files_only: true }
  const tokenizer = await AutoTokenizer.from_pretrained(files.dir, local)
  const model = await AutoModel.from_pretrained(files.dir, { ...local, dtype: 'fp32', device: 'cpu' })
  const padId = tokenizer.pad_token_id ?? 0
  const inputNames: string[] = (model.sessions as Record<string, { inputNames?: string[] }>).model?.inputNames ?? []
  const takesTaskId = inputNames.includes('task_id')

  return {
    frame: frameOf(tokenizer, files.contextTokens),
    tokenize: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    takesTaskId,
    async run(sequences, taskId) {
      const sequenceLength = Math.max(...sequences.map((ids) => ids.length))
      const inputIds = new BigInt64Array(sequences.length * sequenceLength).fill(BigInt(padId))
      const attentionMask = new BigInt64Array(sequences.length * sequenceLength)
      sequences.forEach((ids, row) =>
        ids.forEach((id, i) => {
          inputIds[row * sequenceLength + i] = BigInt(id)
          attentionMask[row * sequenceLength + i] = 1n
        }),
      )
      const dims = [sequences.length, sequenceLength]
      // token_type_ids, when the model takes them, are all zeros (one segment): transformers.js adds them.
      const output = await model({
        input_ids: new Tensor('int64', inputIds, dims),
        attention_mask: new Tensor('int64', attentionMask, dims),
        // A scalar, as the original's export takes it: one adapter for the whole batch.
        ...(takesTaskId && { task_id: new Tensor('int64', BigInt64Array.from([BigInt(taskId ?? 0)]), []) }),
      })
      const states = output.last_hidden_state ?? output.token_embeddings ?? output.text_embeds
      const expected = [sequences.length, sequenceLength, files.hiddenSize]
      if (!states || !(states.data instanceof Float32Array) || states.dims.join() !== expected.join())
        throw new Error(
          `onnx engine: ${files.dir} answered ${Object.keys(output).join(', ')}, not token vectors of shape ${expected.join('×')}`,
        )
      return { data: states.data, sequenceLength, hiddenSize: files.hiddenSize }
    },
  }
}

/** Finds the special tokens the tokenizer puts around a text (`[CLS]` and `[SEP]` for BERT) by encoding one. */
function frameOf(tokenizer: PreTrainedTokenizer, contextTokens: number): Frame {
  const probe = 'hello world'
  const bare = tokenizer.encode(probe, { add_special_tokens: false })
  const full = tokenizer.encode(probe)
  const at = full.findIndex((_, i) => bare.length > 0 && bare.every((id, k) => full[i + k] === id))
  if (at < 0) throw new Error('onnx engine: the tokenizer encodes a text differently with special tokens')
  const frame = { prefix: full.slice(0, at), suffix: full.slice(at + bare.length), contextTokens }
  if (capacity(frame) < 1) throw new Error(`onnx engine: a context of ${contextTokens} tokens leaves no room for text`)
  return frame
}
