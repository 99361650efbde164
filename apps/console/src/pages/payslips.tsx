import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import { formatDate } from '../format';
import { errorText } from '../i18n';
import { Failure, Loading } from '../ui';

export default function PayslipsPage() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['payslips'], queryFn: async () => data(await api.GET('/api/v2/payslips/my', { params: { query: {} } })) });
  const [failure, setFailure] = useState<string | null>(null);

  /** The PDF through the typed client (the token is in memory, not in a URL), handed to the browser as a file. */
  const download = async (id: number, label: string) => {
    setFailure(null);
    try {
      const blob = data(await api.GET('/api/v2/payslips/{id}/file', { params: { path: { id: String(id) } }, parseAs: 'blob' }));
      const url = URL.createObjectURL(blob as unknown as Blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${label}.pdf`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      setFailure(errorText(error));
    }
  };

  return (
    <>
      <h1>{t('payslips.heading')}</h1>
      {failure && (
        <p role="alert" className="failure">
          {failure}
        </p>
      )}
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <Failure error={list.error} retry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <p>{t('payslips.none')}</p>
      ) : (
        <ul className="cards">
          {list.data.data.map((payslip) => (
            <li key={payslip.id}>
              <strong>{payslip.label}</strong> · {formatDate(`${payslip.periodStart}T12:00:00Z`)} – {formatDate(`${payslip.periodEnd}T12:00:00Z`)}{' '}
              <button type="button" onClick={() => void download(payslip.id, payslip.label)}>
                {t('payslips.download')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
