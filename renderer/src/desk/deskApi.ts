import type { ApiClient } from '../api/apiClient.js';
import type {
  Campaign,
  CampaignPreview,
  CampaignRecipientReport,
  CampaignRequest,
  Contact,
  ContactInput,
  Group,
  ImportMapping,
  ImportReport,
  Template,
} from './deskTypes.js';

/** One typed function per desk route the UI calls (spread into the gateway API object). */
export function createDeskApi(client: ApiClient) {
  const id = encodeURIComponent;
  return {
    listContacts: async (filter: { search?: string; groupId?: string }, limit: number, offset: number) => {
      const response = await client.request<Contact[]>('GET', '/gateway/v1/contacts', {
        query: { ...filter, limit, offset },
      });
      const total = Number(response.headers.get('X-Total-Count'));
      return { items: response.data ?? [], total: Number.isFinite(total) ? total : undefined };
    },
    createContact: (input: ContactInput) => client.post<Contact>('/gateway/v1/contacts', input),
    replaceContact: (contactId: string, input: ContactInput) =>
      client
        .request<Contact>('PUT', `/gateway/v1/contacts/${id(contactId)}`, { body: input })
        .then((r) => r.data),
    removeContact: (contactId: string) => client.delete<void>(`/gateway/v1/contacts/${id(contactId)}`),
    contactNames: (phoneNumbers: string[]) =>
      client.post<Record<string, string>>('/gateway/v1/contacts/names', { phoneNumbers }),
    importContacts: (
      csv: string,
      mapping: ImportMapping,
      choice: { commit: boolean; skipRowsWithErrors?: boolean } = { commit: false },
    ) => client.post<ImportReport>('/gateway/v1/contacts/import', { csv, mapping, ...choice }),

    groups: () => client.get<Group[]>('/gateway/v1/groups'),
    createGroup: (name: string) => client.post<Group>('/gateway/v1/groups', { name }),
    removeGroup: (groupId: string) => client.delete<void>(`/gateway/v1/groups/${id(groupId)}`),

    templates: () => client.get<Template[]>('/gateway/v1/templates'),
    createTemplate: (name: string, text: string) =>
      client.post<Template>('/gateway/v1/templates', { name, text }),
    replaceTemplate: (templateId: string, name: string, text: string) =>
      client
        .request<Template>('PUT', `/gateway/v1/templates/${id(templateId)}`, { body: { name, text } })
        .then((r) => r.data),
    removeTemplate: (templateId: string) => client.delete<void>(`/gateway/v1/templates/${id(templateId)}`),

    previewCampaign: (request: CampaignRequest) =>
      client.post<CampaignPreview>('/gateway/v1/campaigns/preview', request),
    startCampaign: (request: CampaignRequest) => client.post<Campaign>('/gateway/v1/campaigns', request),
    campaigns: () => client.get<Campaign[]>('/gateway/v1/campaigns', { limit: 20 }),
    campaignReport: async (campaignId: string, limit: number, offset: number) => {
      const response = await client.request<CampaignRecipientReport[]>(
        'GET',
        `/gateway/v1/campaigns/${id(campaignId)}/recipients`,
        { query: { limit, offset } },
      );
      const total = Number(response.headers.get('X-Total-Count'));
      return { items: response.data ?? [], total: Number.isFinite(total) ? total : undefined };
    },
    cancelCampaign: (campaignId: string) =>
      client.post<Campaign>(`/gateway/v1/campaigns/${id(campaignId)}/cancel`),
  };
}
