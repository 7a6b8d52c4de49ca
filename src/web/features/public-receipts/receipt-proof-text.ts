import type { Language } from '../../../shared/page-language.js';
import type { ReceiptCheck } from '../../../shared/receipt-proof.js';

type Failed = Extract<ReceiptCheck, { verified: false }>['failed'] | 'fetch';

/** What the receipt page's proof section says, in each language. */
export interface ReceiptProofText {
  heading: string;
  intro: string;
  checkpoint: string;
  proof: (count: number, size: number) => string;
  leaf: string;
  checking: string;
  verified: (size: number, keyId: string) => string;
  failed: Record<Failed, string>;
  byHand: string;
  keyLink: string;
  proofLink: string;
}

export const RECEIPT_PROOF_TEXT = {
  en: {
    heading: 'Proof that the log holds this entry',
    intro:
      'The site signs a checkpoint of its whole log (its size and root hash) after every change. The hashes below lead from this entry to that root (RFC 6962); anyone holding the checkpoint can check that this entry is in it, and that no later checkpoint rewrote it.',
    checkpoint: 'Latest checkpoint',
    proof: (count, size) => `Inclusion proof: ${count} hashes, in a log of ${size} entries`,
    leaf: 'Leaf hash',
    checking: 'Checking the proof in this browser…',
    verified: (size, keyId) => `Verified against checkpoint of size ${size}, signed by ${keyId}`,
    failed: {
      browser: 'Not checked: this browser cannot check Ed25519 signatures. Check it by hand (below).',
      fetch: 'Not checked: the site’s public key could not be loaded. Check it by hand (below).',
      key: 'Check failed: the site’s published key is malformed.',
      checkpoint: 'Check failed: the checkpoint’s signature does not verify with the site’s key.',
      size: 'Check failed: the proof is not for this entry in this checkpoint.',
      leaf: 'Check failed: the entry shown does not hash to the proof’s leaf.',
      proof: 'Check failed: the inclusion proof does not lead to the checkpoint’s root.',
    },
    byHand:
      'To check it by hand (or without JavaScript): hash the entry as a leaf, fold in the proof’s hashes up to the checkpoint’s root, and check the checkpoint’s signature with the site’s public key.',
    keyLink: 'The site’s public key',
    proofLink: 'How to check an inclusion proof',
  },
  hi: {
    heading: 'सबूत कि लॉग में यह एंट्री है',
    intro:
      'हर बदलाव के बाद साइट अपने पूरे लॉग का एक चेकपॉइंट (उसका आकार और रूट हैश) साइन करती है। नीचे के हैश इस एंट्री से उस रूट तक ले जाते हैं (RFC 6962); चेकपॉइंट रखने वाला कोई भी जाँच सकता है कि यह एंट्री उसमें है, और किसी बाद के चेकपॉइंट ने इसे बदला नहीं।',
    checkpoint: 'नवीनतम चेकपॉइंट',
    proof: (count, size) => `शामिल होने का सबूत: ${count} हैश, ${size} एंट्रियों के लॉग में`,
    leaf: 'लीफ़ हैश',
    checking: 'इस ब्राउज़र में सबूत जाँचा जा रहा है…',
    verified: (size, keyId) => `आकार ${size} के चेकपॉइंट से सत्यापित, ${keyId} द्वारा साइन किया हुआ`,
    failed: {
      browser: 'जाँच नहीं हुई: यह ब्राउज़र Ed25519 हस्ताक्षर नहीं जाँच सकता। नीचे बताए तरीक़े से ख़ुद जाँचें।',
      fetch: 'जाँच नहीं हुई: साइट की सार्वजनिक कुंजी लोड नहीं हो सकी। नीचे बताए तरीक़े से ख़ुद जाँचें।',
      key: 'जाँच विफल: साइट की प्रकाशित कुंजी ग़लत रूप में है।',
      checkpoint: 'जाँच विफल: चेकपॉइंट का हस्ताक्षर साइट की कुंजी से सही नहीं निकलता।',
      size: 'जाँच विफल: यह सबूत इस चेकपॉइंट में इस एंट्री का नहीं है।',
      leaf: 'जाँच विफल: दिखाई गई एंट्री का हैश सबूत के लीफ़ से मेल नहीं खाता।',
      proof: 'जाँच विफल: शामिल होने का सबूत चेकपॉइंट के रूट तक नहीं पहुँचता।',
    },
    byHand:
      'ख़ुद जाँचने के लिए (या JavaScript के बिना): एंट्री को लीफ़ की तरह हैश करें, सबूत के हैश जोड़ते हुए चेकपॉइंट के रूट तक पहुँचें, और चेकपॉइंट का हस्ताक्षर साइट की सार्वजनिक कुंजी से जाँचें।',
    keyLink: 'साइट की सार्वजनिक कुंजी',
    proofLink: 'शामिल होने का सबूत कैसे जाँचें',
  },
} satisfies Record<Language, ReceiptProofText>;
