import { CardSkeleton, WithApiKey } from '../panels'
import { ClassifierList } from './classifier-list'
import { TrainCard } from './train-card'
import { TryCard } from './try-card'

const skeleton = <CardSkeleton className="h-[28rem] w-full rounded-xl" />

/** The key's classifiers: what there is, training new ones, trying them, deleting them. */
export function ClassifiersTab() {
  return (
    <WithApiKey skeleton={skeleton}>
      {(apiKey) => (
        <div className="flex flex-col gap-6">
          <ClassifierList apiKey={apiKey} />
          <TryCard apiKey={apiKey} />
          <TrainCard apiKey={apiKey} />
        </div>
      )}
    </WithApiKey>
  )
}
