import * as v from 'valibot';
import { createService } from './rules';
import { CreateServiceBody, type Service } from './schema';
import type { DemoSeed } from '#shared/resource';

/** Written as API requests and validated as such, so the demo cannot hold what the API would refuse. */
const DEMO_SERVICES: Array<v.InferInput<typeof CreateServiceBody>> = [
  {
    name: 'Blocked drain clearing',
    description: 'Clearing blocked sinks, toilets and stormwater drains with an electric eel or high-pressure jetter.',
    followUpQuestions: ['Which drain is blocked (sink, toilet, shower or outside)?', 'Is water overflowing right now?', 'Have you had this drain cleared before?'],
    duration: 90,
    durationUnit: 'MINUTES',
    tradeCategoryId: 1,
    pricingType: 'CALL_OUT',
    callOutFee: 99,
    hourlyRate: 145,
    plusGST: true,
    isDisclosePrice: true,
    teamAssignmentMethod: 'ROUND_ROBIN',
  },
  {
    name: 'Hot water system repair',
    description: 'Diagnosis and repair of gas, electric and heat-pump hot water systems; replacement quoted on site.',
    followUpQuestions: ['Is the system gas, electric or heat pump?', 'How old is the system?', 'Is there any water leaking from the tank?'],
    duration: 2,
    durationUnit: 'HOURS',
    tradeCategoryId: 1,
    pricingType: 'HOURLY',
    hourlyRate: 135,
    plusGST: true,
    plusMaterials: true,
    isDisclosePrice: true,
  },
  {
    name: 'Switchboard upgrade',
    description: 'Replacing ceramic-fuse boards with a modern switchboard, RCD safety switches and circuit breakers.',
    followUpQuestions: ['Does the board still have ceramic fuses?', 'Is the switchboard inside or outside the house?'],
    duration: 1,
    durationUnit: 'DAYS',
    tradeCategoryId: 2,
    pricingType: 'RANGE',
    minPrice: 1800,
    maxPrice: 3500,
    plusGST: true,
    isDisclosePrice: false,
  },
  {
    name: 'Power point installation',
    description: 'Installing new double power points, including USB outlets, on an existing circuit.',
    followUpQuestions: ['How many power points do you need?', 'Are the walls plasterboard or brick?'],
    duration: 60,
    durationUnit: 'MINUTES',
    tradeCategoryId: 2,
    pricingType: 'FIXED',
    price: 180,
    plusGST: true,
    isDisclosePrice: true,
  },
  {
    name: 'Roof leak inspection',
    description: 'Finding the source of a roof leak on tile or metal roofs, with photos and a written report.',
    followUpQuestions: ['Is the roof tiled or metal?', 'Where is the water coming through?'],
    duration: 1,
    durationUnit: 'HOURS',
    tradeCategoryId: 5,
    pricingType: 'NONE',
    isCustomPriceResponseActive: true,
    customPriceResponse: 'We quote roof repairs after the inspection, once we know what needs fixing.',
    isActive: false,
  },
];

/** Five services in three trade categories (plumbing, electrical, roofing), each with its scenario. */
export async function seedServices(organizationId: string): Promise<Service[]> {
  const services: Service[] = [];
  for (const input of DEMO_SERVICES) services.push(await createService(organizationId, v.parse(CreateServiceBody, input)));
  return services.reverse();
}

/** This resource's part of the demo organization (infra/demo reads it by the list of resources). */
export const demoSeed: DemoSeed = {
  run: async (organizationId) => {
    const services = await seedServices(organizationId);
    return { services, serviceIds: services.map((service) => service.id), scenarioIds: services.map((service) => service.scenario.id) };
  },
};
